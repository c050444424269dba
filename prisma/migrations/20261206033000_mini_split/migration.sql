-- The Mini split (SPEC §8): a version's computed subset of chains, and the split each submission is on.
-- Columns added in place, not by redefining the tables, so other migrations' columns are kept.
ALTER TABLE "DatasetVersion" ADD COLUMN "mini" TEXT;
ALTER TABLE "Submission" ADD COLUMN "split" TEXT NOT NULL DEFAULT 'full';

-- CreateIndex
CREATE INDEX "Submission_datasetVersionId_split_idx" ON "Submission"("datasetVersionId", "split");
