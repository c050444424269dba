/**
 * The portal's data layer as the evaluation queue reads it: handed to every
 * worker pool and dispatcher by the process that starts it, so that
 * jobs/queue and jobs/distributed import no portal feature.
 */
import type { QueueLoaders } from "@/jobs/queue";
import { getChain } from "@/lib/dataset/data";
import { refreshAggregates } from "@/lib/leaderboard/aggregates";
import { getChainPredictions } from "@/lib/submissions/data";

export const portalLoaders: QueueLoaders = { chain: getChain, predictions: getChainPredictions, aggregates: refreshAggregates };
