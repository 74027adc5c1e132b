terraform {
  required_providers {
    aws = {
      version = "~> 6.0"
    }
  }
  cloud {
    organization = "example"
  }
}

provider "aws" {
  alias  = "west"
  region = "eu-west-1"
}

provider "google" {
  project = "p"
}

locals {
  b = 20
}
