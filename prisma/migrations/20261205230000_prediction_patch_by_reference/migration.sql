-- AlterTable (a column added in place, not by redefining the table, so other migrations' columns are kept):
-- a large model patch stays in the StagedText row the upload-checking thread wrote, and the prediction names it
ALTER TABLE "Prediction" ADD COLUMN "patchTextId" TEXT REFERENCES "StagedText" ("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- CreateIndex
CREATE UNIQUE INDEX "Prediction_patchTextId_key" ON "Prediction"("patchTextId");
