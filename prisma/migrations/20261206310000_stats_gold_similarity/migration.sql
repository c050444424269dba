-- AlterTable (a column added in place, so other migrations' columns are kept): a graded bug's similarity to gold (SPEC §7 "Close to gold")
ALTER TABLE "BugResult" ADD COLUMN "goldSimilarity" REAL;
