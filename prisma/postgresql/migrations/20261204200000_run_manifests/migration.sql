-- AlterTable
ALTER TABLE "DatasetVersion" ADD COLUMN "rules" TEXT NOT NULL DEFAULT '{}';
ALTER TABLE "DatasetVersion" ADD COLUMN "rulesSetAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "Submission" ADD COLUMN "manifest" TEXT;
ALTER TABLE "Submission" ADD COLUMN "ruleBreaches" TEXT NOT NULL DEFAULT '[]';
