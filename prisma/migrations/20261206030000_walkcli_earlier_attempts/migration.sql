-- CreateTable: the results of an evaluation a reviewer's re-run replaced, kept rather than deleted
CREATE TABLE "EarlierAttempt" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "submissionId" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "finishedAt" DATETIME,
    "replacedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "replacedById" TEXT,
    "bugsGraded" INTEGER NOT NULL,
    "bugsResolved" INTEGER NOT NULL,
    "results" TEXT NOT NULL,
    "logs" TEXT NOT NULL,
    CONSTRAINT "EarlierAttempt_submissionId_fkey" FOREIGN KEY ("submissionId") REFERENCES "Submission" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "EarlierAttempt_submissionId_attempt_key" ON "EarlierAttempt"("submissionId", "attempt");
