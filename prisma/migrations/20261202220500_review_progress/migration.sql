-- AlterTable
ALTER TABLE "Submission" ADD COLUMN "finishedAt" DATETIME;
ALTER TABLE "Submission" ADD COLUMN "publishRequestedAt" DATETIME;
ALTER TABLE "Submission" ADD COLUMN "reviewReason" TEXT;
ALTER TABLE "Submission" ADD COLUMN "reviewedAt" DATETIME;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_DatasetVersion" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "version" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "stats" TEXT NOT NULL,
    "modes" TEXT NOT NULL DEFAULT '["oracle","seq","seq_mem"]',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_DatasetVersion" ("createdAt", "id", "sha256", "stats", "version") SELECT "createdAt", "id", "sha256", "stats", "version" FROM "DatasetVersion";
DROP TABLE "DatasetVersion";
ALTER TABLE "new_DatasetVersion" RENAME TO "DatasetVersion";
CREATE UNIQUE INDEX "DatasetVersion_version_key" ON "DatasetVersion"("version");
CREATE TABLE "new_EvaluationJob" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "submissionId" TEXT NOT NULL,
    "continuousId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "leaseOwner" TEXT,
    "leaseExpiresAt" DATETIME,
    "runAfter" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastError" TEXT,
    "progress" TEXT NOT NULL DEFAULT '[]',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "startedAt" DATETIME,
    "finishedAt" DATETIME,
    CONSTRAINT "EvaluationJob_submissionId_fkey" FOREIGN KEY ("submissionId") REFERENCES "Submission" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_EvaluationJob" ("attempts", "continuousId", "createdAt", "finishedAt", "id", "lastError", "leaseExpiresAt", "leaseOwner", "runAfter", "startedAt", "status", "submissionId", "updatedAt") SELECT "attempts", "continuousId", "createdAt", "finishedAt", "id", "lastError", "leaseExpiresAt", "leaseOwner", "runAfter", "startedAt", "status", "submissionId", "updatedAt" FROM "EvaluationJob";
DROP TABLE "EvaluationJob";
ALTER TABLE "new_EvaluationJob" RENAME TO "EvaluationJob";
CREATE INDEX "EvaluationJob_status_runAfter_idx" ON "EvaluationJob"("status", "runAfter");
CREATE INDEX "EvaluationJob_leaseExpiresAt_idx" ON "EvaluationJob"("leaseExpiresAt");
CREATE UNIQUE INDEX "EvaluationJob_submissionId_continuousId_key" ON "EvaluationJob"("submissionId", "continuousId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "Submission_createdAt_idx" ON "Submission"("createdAt");

