terraform {
  backend "gcs" {
    bucket                  = "tfstate"
    prefix                  = "app"
    access_token            = "fake-token"
    storage_custom_endpoint = "http://127.0.0.1:1/storage/v1/"
  }
}
