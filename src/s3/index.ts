// `frugal-mcp/s3`: the S3 storage provider, for projects that install the optional
// `@aws-sdk/client-s3` peer. (The main entry exports it too; the SDK loads on first use.)
export { type S3ClientLike, S3Storage, type S3StorageOptions } from "../storage/s3-storage.js";
