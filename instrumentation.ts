/** Next.js calls register() once when the server starts: the place to start the embedded worker. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startSiteWorker } = await import("@/lib/site/worker");
  await startSiteWorker();
}
