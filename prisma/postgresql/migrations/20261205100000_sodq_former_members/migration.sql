-- CreateTable
CREATE TABLE "FormerMember" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "joinedAt" TIMESTAMP(3) NOT NULL,
    "leftAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FormerMember_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "FormerMember_teamId_userId_idx" ON "FormerMember"("teamId", "userId");

-- CreateIndex
CREATE INDEX "FormerMember_userId_idx" ON "FormerMember"("userId");

-- AddForeignKey
ALTER TABLE "FormerMember" ADD CONSTRAINT "FormerMember_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FormerMember" ADD CONSTRAINT "FormerMember_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

