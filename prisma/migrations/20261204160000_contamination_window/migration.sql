-- AlterTable
ALTER TABLE "System" ADD COLUMN "releaseDate" TEXT;
ALTER TABLE "System" ADD COLUMN "trainingCutoff" TEXT;

-- AlterTable
ALTER TABLE "SubmissionScore" ADD COLUMN "chains" TEXT;
