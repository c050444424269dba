-- AlterTable
ALTER TABLE "Submission" ADD COLUMN "testEditPolicy" TEXT NOT NULL DEFAULT 'keep';
