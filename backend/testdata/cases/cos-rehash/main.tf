terraform {
  backend "cos" {
    region     = "ap-guangzhou"
    bucket     = "tfstate-1250000000"
    secret_id  = "fake-id"
    secret_key = "fake-key"
    prefix     = "app"
  }
}
