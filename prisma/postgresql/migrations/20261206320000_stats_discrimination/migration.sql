-- AlterTable: a version's chains and bugs that still discriminate, written by the aggregate refresh (SPEC §4 "Chains that still discriminate")
ALTER TABLE "VersionRanking" ADD COLUMN "discrimination" TEXT;
