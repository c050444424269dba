"use client";
import { SegmentError } from "@/components/ui/SegmentError";

export default function Error(props: { error: Error & { digest?: string }; reset: () => void }) {
  return <SegmentError {...props} what="The notifications" />;
}
