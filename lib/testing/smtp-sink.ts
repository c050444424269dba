/**
 * A real SMTP server for e-mail tests (smtp-server on 127.0.0.1, a random
 * port, no TLS and no authentication), keeping each message's envelope and raw text.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export type SunkMessage = { from: string; to: string[]; raw: string };

export async function startSmtpSink(): Promise<{ url: string; messages: SunkMessage[]; close: () => Promise<void> }> {
  const messages: SunkMessage[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        messages.push({ from, to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("utf8") });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, messages, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
