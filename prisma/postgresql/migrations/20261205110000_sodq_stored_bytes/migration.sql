-- AlterTable
ALTER TABLE "Submission" ADD COLUMN     "resultBytes" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "uploadBytes" BIGINT NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "Submission_submittedById_idx" ON "Submission"("submittedById");


-- Backfill: what the submissions already stored count from now on (their largest text columns)
UPDATE "Submission" SET
  "uploadBytes" =
    COALESCE((SELECT SUM(OCTET_LENGTH("modelPatch") + OCTET_LENGTH("meta")) FROM "Prediction" p WHERE p."submissionId" = "Submission"."id"), 0) +
    COALESCE((SELECT SUM(OCTET_LENGTH("log") + OCTET_LENGTH(COALESCE("outcome", '')) + OCTET_LENGTH("shortcuts")) FROM "Trajectory" t WHERE t."submissionId" = "Submission"."id"), 0),
  "resultBytes" =
    COALESCE((SELECT SUM(OCTET_LENGTH("log") + OCTET_LENGTH("failToPass") + OCTET_LENGTH("passToPass")) FROM "BugResult" r WHERE r."submissionId" = "Submission"."id"), 0);
