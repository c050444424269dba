-- CreateTable: a dataset version's rank tiers, written by the aggregate refresh (SPEC §4 "Rank tiers")
CREATE TABLE "VersionRanking" (
    "datasetVersionId" TEXT NOT NULL PRIMARY KEY,
    "tiers" TEXT NOT NULL,
    "computedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "VersionRanking_datasetVersionId_fkey" FOREIGN KEY ("datasetVersionId") REFERENCES "DatasetVersion" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
