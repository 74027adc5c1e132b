terraform {
  backend "s3" {
    bucket                      = "tfstate"
    key                         = "env/terraform.tfstate"
    region                      = "us-east-1"
    access_key                  = "fake"
    secret_key                  = "fake"
    skip_credentials_validation = true
    skip_requesting_account_id  = true
    skip_metadata_api_check     = true
    use_path_style              = true
    use_lockfile                = true
    endpoints = {
      s3  = "http://127.0.0.1:1"
      sso = "http://127.0.0.1:1"
    }
    allowed_account_ids = ["123456789012"]
  }
}
