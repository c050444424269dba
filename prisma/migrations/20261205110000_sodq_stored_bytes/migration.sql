-- AlterTable (columns added in place, not by redefining the table, so other migrations' columns are kept)
ALTER TABLE "Submission" ADD COLUMN "uploadBytes" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "Submission" ADD COLUMN "resultBytes" BIGINT NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "Submission_submittedById_idx" ON "Submission"("submittedById");

-- Backfill: what the submissions already stored count from now on (their largest text columns)
UPDATE "Submission" SET
  "uploadBytes" =
    COALESCE((SELECT SUM(LENGTH(CAST("modelPatch" AS BLOB)) + LENGTH(CAST("meta" AS BLOB))) FROM "Prediction" p WHERE p."submissionId" = "Submission"."id"), 0) +
    COALESCE((SELECT SUM(LENGTH(CAST("log" AS BLOB)) + LENGTH(CAST(COALESCE("outcome", '') AS BLOB)) + LENGTH(CAST("shortcuts" AS BLOB))) FROM "Trajectory" t WHERE t."submissionId" = "Submission"."id"), 0),
  "resultBytes" =
    COALESCE((SELECT SUM(LENGTH(CAST("log" AS BLOB)) + LENGTH(CAST("failToPass" AS BLOB)) + LENGTH(CAST("passToPass" AS BLOB))) FROM "BugResult" r WHERE r."submissionId" = "Submission"."id"), 0);
