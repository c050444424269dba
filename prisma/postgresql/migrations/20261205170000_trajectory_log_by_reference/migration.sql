-- AlterTable: a large trajectory log stays in the StagedText row the upload-checking thread wrote, and the trajectory names it
ALTER TABLE "Trajectory" ADD COLUMN "logTextId" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Trajectory_logTextId_key" ON "Trajectory"("logTextId");

-- AddForeignKey
ALTER TABLE "Trajectory" ADD CONSTRAINT "Trajectory_logTextId_fkey" FOREIGN KEY ("logTextId") REFERENCES "StagedText"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
