/**
 * The client address of the request a server action is answering, for the
 * per-address limits: X-Forwarded-For's behind a trusted proxy, else the
 * connection's peer (lib/auth/login-attempts.ts clientAddress).
 */
import { headers } from "next/headers";
import { env } from "@/env";
import { requestPeer } from "@/lib/forms/action";
import { clientAddress } from "./login-attempts";

export async function requestClientAddress(): Promise<string | null> {
  return clientAddress(await headers(), env().CHAINSWE_TRUST_PROXY, requestPeer());
}
