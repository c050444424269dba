-- AlterTable
ALTER TABLE "Submission" ADD COLUMN "trajectoriesPublic" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Submission" ADD COLUMN "shortcuts" TEXT NOT NULL DEFAULT '{}';

-- CreateTable
CREATE TABLE "Trajectory" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "submissionId" TEXT NOT NULL,
    "continuousId" TEXT NOT NULL,
    "order" INTEGER NOT NULL,
    "log" TEXT NOT NULL,
    "outcome" TEXT,
    "shortcuts" TEXT NOT NULL DEFAULT '[]',
    "steps" INTEGER NOT NULL,
    "calls" INTEGER NOT NULL,
    CONSTRAINT "Trajectory_submissionId_fkey" FOREIGN KEY ("submissionId") REFERENCES "Submission" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Trajectory_submissionId_continuousId_order_key" ON "Trajectory"("submissionId", "continuousId", "order");
