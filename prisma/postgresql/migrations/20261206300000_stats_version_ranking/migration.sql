-- CreateTable: a dataset version's rank tiers, written by the aggregate refresh (SPEC §4 "Rank tiers")
CREATE TABLE "VersionRanking" (
    "datasetVersionId" TEXT NOT NULL,
    "tiers" TEXT NOT NULL,
    "computedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "VersionRanking_pkey" PRIMARY KEY ("datasetVersionId")
);

-- AddForeignKey
ALTER TABLE "VersionRanking" ADD CONSTRAINT "VersionRanking_datasetVersionId_fkey" FOREIGN KEY ("datasetVersionId") REFERENCES "DatasetVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;
