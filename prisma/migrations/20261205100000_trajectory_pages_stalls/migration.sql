-- AlterTable
ALTER TABLE "Trajectory" ADD COLUMN "shortcutHits" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Trajectory" ADD COLUMN "items" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Trajectory" ADD COLUMN "pages" TEXT NOT NULL DEFAULT '[]';
-- the hits stored so far were all the scan's
UPDATE "Trajectory" SET "shortcutHits" = json_array_length("shortcuts");

-- CreateTable
CREATE TABLE "StagedText" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "text" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "StagedText_createdAt_idx" ON "StagedText"("createdAt");
