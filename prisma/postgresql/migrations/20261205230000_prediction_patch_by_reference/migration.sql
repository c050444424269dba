-- AlterTable: a large model patch stays in the StagedText row the upload-checking thread wrote, and the prediction names it
ALTER TABLE "Prediction" ADD COLUMN "patchTextId" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Prediction_patchTextId_key" ON "Prediction"("patchTextId");

-- AddForeignKey
ALTER TABLE "Prediction" ADD CONSTRAINT "Prediction_patchTextId_fkey" FOREIGN KEY ("patchTextId") REFERENCES "StagedText"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
