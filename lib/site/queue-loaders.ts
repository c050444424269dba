/**
 * The portal's data layer as the evaluation queue reads it: handed to every
 * worker pool and dispatcher by the process that starts it, so that
 * jobs/queue and jobs/distributed import no portal feature.
 */
import type { QueueLoaders } from "@/jobs/queue";
import { getChain } from "@/lib/dataset/data";
import { refreshAggregates } from "@/lib/leaderboard/aggregates";
import { getChainPredictions } from "@/lib/submissions/data";
import { followVersionMini } from "@/lib/dataset/mini";

export const portalLoaders: QueueLoaders = {
  chain: getChain,
  predictions: getChainPredictions,
  // a version's Mini follows its published rows (lib/dataset/mini.ts), from their stored scores
  aggregates: async (submissionId) => {
    const refreshed = await refreshAggregates(submissionId);
    await followVersionMini(submissionId);
    return refreshed;
  },
};
