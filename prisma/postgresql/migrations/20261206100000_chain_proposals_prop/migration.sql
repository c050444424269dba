-- Chain proposals (SPEC §8): the proposals, their chains with verdict and review, and the chains' validation jobs
-- CreateTable
CREATE TABLE "ChainProposal" (
    "id" TEXT NOT NULL,
    "datasetVersionId" TEXT NOT NULL,
    "proposedById" TEXT,
    "fileName" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "warnings" TEXT NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ChainProposal_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProposedChain" (
    "id" TEXT NOT NULL,
    "proposalId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "continuousId" TEXT NOT NULL,
    "record" TEXT NOT NULL,
    "recordSha256" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'validating',
    "validation" TEXT,
    "validatedRecord" TEXT,
    "refusal" TEXT,
    "log" TEXT NOT NULL DEFAULT '',
    "review" TEXT NOT NULL DEFAULT 'pending',
    "reviewedById" TEXT,
    "reviewedAt" TIMESTAMP(3),
    "reviewReason" TEXT,

    CONSTRAINT "ProposedChain_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ValidationJob" (
    "id" TEXT NOT NULL,
    "proposedChainId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "leaseOwner" TEXT,
    "leaseExpiresAt" TIMESTAMP(3),
    "runAfter" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "ValidationJob_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ChainProposal_datasetVersionId_idx" ON "ChainProposal"("datasetVersionId");

-- CreateIndex
CREATE INDEX "ChainProposal_proposedById_idx" ON "ChainProposal"("proposedById");

-- CreateIndex
CREATE INDEX "ProposedChain_continuousId_idx" ON "ProposedChain"("continuousId");

-- CreateIndex
CREATE INDEX "ProposedChain_review_idx" ON "ProposedChain"("review");

-- CreateIndex
CREATE UNIQUE INDEX "ProposedChain_proposalId_continuousId_key" ON "ProposedChain"("proposalId", "continuousId");

-- CreateIndex
CREATE UNIQUE INDEX "ValidationJob_proposedChainId_key" ON "ValidationJob"("proposedChainId");

-- CreateIndex
CREATE INDEX "ValidationJob_status_runAfter_idx" ON "ValidationJob"("status", "runAfter");

-- AddForeignKey
ALTER TABLE "ChainProposal" ADD CONSTRAINT "ChainProposal_datasetVersionId_fkey" FOREIGN KEY ("datasetVersionId") REFERENCES "DatasetVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChainProposal" ADD CONSTRAINT "ChainProposal_proposedById_fkey" FOREIGN KEY ("proposedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProposedChain" ADD CONSTRAINT "ProposedChain_proposalId_fkey" FOREIGN KEY ("proposalId") REFERENCES "ChainProposal"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProposedChain" ADD CONSTRAINT "ProposedChain_reviewedById_fkey" FOREIGN KEY ("reviewedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ValidationJob" ADD CONSTRAINT "ValidationJob_proposedChainId_fkey" FOREIGN KEY ("proposedChainId") REFERENCES "ProposedChain"("id") ON DELETE CASCADE ON UPDATE CASCADE;

