-- AlterTable: a graded bug's similarity to gold (SPEC §7 "Close to gold")
ALTER TABLE "BugResult" ADD COLUMN "goldSimilarity" DOUBLE PRECISION;
