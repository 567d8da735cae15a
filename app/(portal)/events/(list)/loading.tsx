export { ListingPageSkeleton as default } from "@/components/listing/table-skeleton";
