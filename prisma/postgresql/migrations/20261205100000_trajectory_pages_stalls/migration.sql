-- AlterTable
ALTER TABLE "Trajectory" ADD COLUMN "shortcutHits" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "items" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "pages" TEXT NOT NULL DEFAULT '[]';
-- the hits stored so far were all the scan's
UPDATE "Trajectory" SET "shortcutHits" = json_array_length("shortcuts"::json);

-- CreateTable
CREATE TABLE "StagedText" (
    "id" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StagedText_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "StagedText_createdAt_idx" ON "StagedText"("createdAt");
