-- AlterTable
ALTER TABLE "Submission" ADD COLUMN "runOfId" TEXT;
ALTER TABLE "Submission" ADD COLUMN "run" INTEGER NOT NULL DEFAULT 1;

-- CreateIndex
CREATE UNIQUE INDEX "Submission_runOfId_run_key" ON "Submission"("runOfId", "run");
