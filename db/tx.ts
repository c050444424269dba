/**
 * The client inside a transaction: what the data layer and the queue hand to
 * the writes that must commit together (a submission's rows, its jobs, the
 * status that settles them, the notification it leaves).
 */
import type { Prisma } from "@/db/generated/prisma/client";

export type Tx = Prisma.TransactionClient;
