-- AlterTable (a column added in place, not by redefining the table, so other migrations' columns are kept):
-- a large trajectory log stays in the StagedText row the upload-checking thread wrote, and the trajectory names it
ALTER TABLE "Trajectory" ADD COLUMN "logTextId" TEXT REFERENCES "StagedText" ("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- CreateIndex
CREATE UNIQUE INDEX "Trajectory_logTextId_key" ON "Trajectory"("logTextId");
