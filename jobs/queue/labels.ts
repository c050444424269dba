/**
 * Which queue a sandbox belongs to, as a container label. Reapers only look at
 * their own queue's containers: two databases (or a database and a Redis
 * deployment) sharing one Docker engine must never take each other's running
 * sandboxes for orphans. No imports, so the distributed worker can use it
 * without loading the database layer.
 */
export const QUEUE_LABEL = "chainswe.queue";
