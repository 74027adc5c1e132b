terraform {
  cloud {
    hostname     = "127.0.0.1:1"
    organization = "org"
    token        = "fake-token"
    workspaces {
      project = "proj"
      tags = {
        env  = "prod"
        team = "infra"
      }
    }
  }
}
