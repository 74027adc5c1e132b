terraform {
  backend "remote" {
    hostname     = "127.0.0.1:1"
    organization = "org"
    token        = "fake-token"
    workspaces {
      prefix = "app-"
    }
  }
}
