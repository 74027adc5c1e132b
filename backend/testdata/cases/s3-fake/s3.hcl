endpoints = {
  s3 = "@ENDPOINT@"
}
