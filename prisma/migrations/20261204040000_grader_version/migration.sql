-- AlterTable
ALTER TABLE "BugResult" ADD COLUMN "graderVersion" TEXT;
ALTER TABLE "BugResult" ADD COLUMN "logParser" TEXT;
ALTER TABLE "BugResult" ADD COLUMN "packageVersion" TEXT;
ALTER TABLE "BugResult" ADD COLUMN "predictionSha256" TEXT;
ALTER TABLE "BugResult" ADD COLUMN "recordSha256" TEXT;

