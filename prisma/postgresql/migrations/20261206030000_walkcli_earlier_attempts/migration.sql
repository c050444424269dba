-- CreateTable: the results of an evaluation a reviewer's re-run replaced, kept rather than deleted
CREATE TABLE "EarlierAttempt" (
    "id" TEXT NOT NULL,
    "submissionId" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "finishedAt" TIMESTAMP(3),
    "replacedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "replacedById" TEXT,
    "bugsGraded" INTEGER NOT NULL,
    "bugsResolved" INTEGER NOT NULL,
    "results" TEXT NOT NULL,
    "logs" TEXT NOT NULL,

    CONSTRAINT "EarlierAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "EarlierAttempt_submissionId_attempt_key" ON "EarlierAttempt"("submissionId", "attempt");

-- AddForeignKey
ALTER TABLE "EarlierAttempt" ADD CONSTRAINT "EarlierAttempt_submissionId_fkey" FOREIGN KEY ("submissionId") REFERENCES "Submission"("id") ON DELETE CASCADE ON UPDATE CASCADE;
