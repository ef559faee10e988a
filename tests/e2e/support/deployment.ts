// What the end-to-end deployment is configured with (playwright.config.ts hands it to the app): the pages under
// test must name this origin and this contact address, and no other.
import { appPort } from "./ports";

// Served as localhost (not 127.0.0.1): Auth.js callbacks compare cookies against that host.
export const siteOrigin = `http://localhost:${appPort}`;
export const contactEmail = "hello@agora.test";
