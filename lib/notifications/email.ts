/**
 * Sending one notification e-mail through the SMTP server the site is
 * configured with (CHAINSWE_SMTP_URL), by nodemailer.
 */
import nodemailer, { type Transporter } from "nodemailer";
import { coerceError } from "@/core/errors";
import type { AttemptFailure, AttemptOutcome } from "./outcome";

export type EmailSettings = { url: string; from: string };

const transports = new Map<string, Transporter>();

function transport(url: string): Transporter {
  let t = transports.get(url);
  if (!t) {
    // bounded like the webhook POST, so one slow server cannot hold the delivery loop
    t = nodemailer.createTransport(url, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
    transports.set(url, t);
  }
  return t;
}

export async function sendEmail(settings: EmailSettings, to: string, message: { subject: string; text: string }): Promise<AttemptOutcome> {
  const started = performance.now();
  const durationMs = () => Math.round(performance.now() - started);
  try {
    await transport(settings.url).sendMail({ from: settings.from, to, subject: message.subject, text: message.text });
    return { ok: true, httpStatus: null, failure: null, detail: null, durationMs: durationMs() };
  } catch (e) {
    return { ok: false, httpStatus: null, failure: mailFailure(e), detail: coerceError(e).message, durationMs: durationMs() };
  }
}

/** nodemailer's error codes, as a category (the message names the server and the recipient). */
function mailFailure(e: unknown): AttemptFailure {
  const code = (e as { code?: unknown }).code;
  if (code === "ETIMEDOUT") return "timed out";
  if (code === "ECONNECTION" || code === "ESOCKET" || code === "EDNS" || code === "ETLS") return "unreachable";
  return "mail server refused";
}
