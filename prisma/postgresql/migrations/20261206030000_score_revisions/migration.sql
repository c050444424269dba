-- Archived boards (as_of): a submission's scores as they stood until replaced, and the grader version they were graded with
-- AlterTable
ALTER TABLE "SubmissionScore" ADD COLUMN     "graderVersion" TEXT;

-- CreateTable
CREATE TABLE "ScoreRevision" (
    "id" TEXT NOT NULL,
    "submissionId" TEXT NOT NULL,
    "scores" TEXT NOT NULL,
    "chains" TEXT,
    "graderVersion" TEXT,
    "computedAt" TIMESTAMP(3) NOT NULL,
    "replacedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ScoreRevision_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ScoreRevision_submissionId_computedAt_idx" ON "ScoreRevision"("submissionId", "computedAt");

-- AddForeignKey
ALTER TABLE "ScoreRevision" ADD CONSTRAINT "ScoreRevision_submissionId_fkey" FOREIGN KEY ("submissionId") REFERENCES "Submission"("id") ON DELETE CASCADE ON UPDATE CASCADE;

