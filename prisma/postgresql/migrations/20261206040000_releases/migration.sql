-- Releases (SPEC §8): a version's parent, its notes and the frozen manifest of its records' sha256.
ALTER TABLE "DatasetVersion" ADD COLUMN     "parentVersion" TEXT;
ALTER TABLE "DatasetVersion" ADD COLUMN     "releaseNotes" TEXT NOT NULL DEFAULT '[]';
ALTER TABLE "DatasetVersion" ADD COLUMN     "manifest" TEXT;
