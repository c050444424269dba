-- The Mini split (SPEC §8): a version's computed subset of chains, and the split each submission is on
-- AlterTable
ALTER TABLE "DatasetVersion" ADD COLUMN     "mini" TEXT;

-- AlterTable
ALTER TABLE "Submission" ADD COLUMN     "split" TEXT NOT NULL DEFAULT 'full';

-- CreateIndex
CREATE INDEX "Submission_datasetVersionId_split_idx" ON "Submission"("datasetVersionId", "split");

