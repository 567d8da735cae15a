-- A plan's status as an enum (issue 36 §1): the database refuses a state lib/plans/lifecycle.ts does
-- not know, and the generated client types every status. The stored strings are the enum's labels.
-- CreateEnum
CREATE TYPE "PlanStatus" AS ENUM ('draft', 'submitted', 'approved', 'rejected', 'applying', 'applied', 'failed', 'conflict', 'cancelled');

-- AlterTable
ALTER TABLE "ChangePlan" ALTER COLUMN "status" DROP DEFAULT,
ALTER COLUMN "status" TYPE "PlanStatus" USING ("status"::"PlanStatus"),
ALTER COLUMN "status" SET DEFAULT 'draft';
