import { z } from "zod";

export const newsletterSchema = z.object({
  email: z.string().trim().max(254, "Invalid email address").pipe(z.email("Invalid email address")),
});

export type NewsletterInput = z.infer<typeof newsletterSchema>;
