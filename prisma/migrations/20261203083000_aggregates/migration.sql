-- CreateTable
CREATE TABLE "SubmissionScore" (
    "submissionId" TEXT NOT NULL PRIMARY KEY,
    "scores" TEXT NOT NULL,
    "computedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "SubmissionScore_submissionId_fkey" FOREIGN KEY ("submissionId") REFERENCES "Submission" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ChainErrorAnalysis" (
    "seqSubmissionId" TEXT NOT NULL PRIMARY KEY,
    "oracleSubmissionId" TEXT NOT NULL,
    "chainErrors" TEXT NOT NULL,
    "breakdown" TEXT NOT NULL,
    "computedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ChainErrorAnalysis_seqSubmissionId_fkey" FOREIGN KEY ("seqSubmissionId") REFERENCES "Submission" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ChainErrorAnalysis_oracleSubmissionId_fkey" FOREIGN KEY ("oracleSubmissionId") REFERENCES "Submission" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ChainErrorAnalysis_oracleSubmissionId_idx" ON "ChainErrorAnalysis"("oracleSubmissionId");

