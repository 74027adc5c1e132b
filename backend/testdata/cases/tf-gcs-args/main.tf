terraform {
  backend "gcs" {
    bucket                  = "tfstate"
    access_token            = "fake-token"
  }
}
