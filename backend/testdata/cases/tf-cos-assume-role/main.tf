terraform {
  backend "cos" {
    region     = "ap-guangzhou"
    bucket     = "tfstate-1250000000"
    secret_id  = "fake-id"
    secret_key = "fake-key"
    domain     = "example.com"
    key        = "app.tfstate"
    accelerate = true
    assume_role {
      role_arn         = "qcs::cam::uin/100000000001:roleName/fake"
      session_name     = "tfdeps"
      session_duration = 3600
    }
  }
}
