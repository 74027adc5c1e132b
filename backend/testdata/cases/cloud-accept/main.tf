terraform {
  cloud {
    hostname     = "127.0.0.1:1"
    organization = "org"
    workspaces {
      tags = ["app"]
    }
  }
}
