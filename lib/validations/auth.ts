// Schemas for the account forms and the JSON auth API; the screens and the server parse with the same ones.
import { z } from "zod";
import { isCommonPassword } from "@/lib/validations/common-passwords";

export const MIN_PASSWORD_LENGTH = 8;
// Long enough for any passphrase; the cap keeps one request from hashing megabytes.
const MAX_PASSWORD_LENGTH = 200;

const email = z.string().trim().max(254, "Invalid email address").pipe(z.email("Invalid email address"));

/** A password being chosen: long enough and not one of the most common. */
const newPassword = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters.`)
  .max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters.`)
  .refine((p) => !isCommonPassword(p), "This password is too common. Choose one that is harder to guess.");

// Names are shown back to people: no control characters, collapsed whitespace.
const displayName = z
  .string()
  .transform((v) =>
    v
      .replace(/[\u0000-\u001f\u007f]/g, " ")
      .replace(/\s+/g, " ")
      .trim(),
  )
  .pipe(z.string().min(1, "Please enter your name.").max(100, "Name must be under 100 characters."));

export const registerSchema = z.object({ email, password: newPassword, name: displayName });

export const signInSchema = z.object({
  email,
  password: z.string().min(1, "Please enter your password.").max(MAX_PASSWORD_LENGTH, "Invalid email or password."),
});

export const forgotPasswordSchema = z.object({ email });

export const resetPasswordSchema = z.object({
  token: z
    .string()
    .trim()
    .min(1, "This reset link is invalid or has expired.")
    .max(200, "This reset link is invalid or has expired."),
  password: newPassword,
});

export const codeExchangeSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, "Please provide the authorization code.")
    .max(512, "The authorization code is not valid."),
  // Optional PKCE verifier, for clients that sent a code_challenge with the authorization request.
  codeVerifier: z.string().trim().min(43).max(128).optional(),
});

export const API_TOKEN_LIFETIMES = [30, 90, 365] as const;

export const apiTokenSchema = z.object({
  name: displayName.pipe(z.string().max(60, "Token name must be under 60 characters.")),
  expiresInDays: z.coerce
    .number()
    .refine(
      (d): d is (typeof API_TOKEN_LIFETIMES)[number] => (API_TOKEN_LIFETIMES as readonly number[]).includes(d),
      "Choose 30, 90 or 365 days.",
    ),
});

export type RegisterInput = z.infer<typeof registerSchema>;
export type SignInInput = z.infer<typeof signInSchema>;
export const verifyEmailSchema = z.object({
  token: z
    .string()
    .trim()
    .min(1, "This verification link is invalid or has expired.")
    .max(200, "This verification link is invalid or has expired."),
});

export type VerifyEmailInput = z.infer<typeof verifyEmailSchema>;
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;
export type ApiTokenInput = z.infer<typeof apiTokenSchema>;
export type ApiTokenValues = z.input<typeof apiTokenSchema>;
