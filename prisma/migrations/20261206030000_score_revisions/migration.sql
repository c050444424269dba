-- Archived boards (as_of): a submission's scores as they stood until replaced, and the grader version they were graded with
-- AlterTable
ALTER TABLE "SubmissionScore" ADD COLUMN "graderVersion" TEXT;

-- CreateTable
CREATE TABLE "ScoreRevision" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "submissionId" TEXT NOT NULL,
    "scores" TEXT NOT NULL,
    "chains" TEXT,
    "graderVersion" TEXT,
    "computedAt" DATETIME NOT NULL,
    "replacedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ScoreRevision_submissionId_fkey" FOREIGN KEY ("submissionId") REFERENCES "Submission" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ScoreRevision_submissionId_computedAt_idx" ON "ScoreRevision"("submissionId", "computedAt");

