-- AlterTable
ALTER TABLE "Submission" ADD COLUMN "lastRegrade" TEXT;
