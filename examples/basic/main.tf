terraform {
  required_providers {
    random = {
      source  = "hashicorp/random"
      version = ">= 3.0, < 4"
    }
  }
}

resource "random_pet" "name" {
  length = 2
}

resource "random_id" "suffix" {
  byte_length = 4
  keepers = {
    pet = random_pet.name.id
  }
}

module "naming" {
  source = "./modules/naming"
}

# A module archive bundled with the example. go-getter needs an absolute
# file path for archives, so the path is built from path.module (module
# sources may use static expressions).
module "labels" {
  source = "${abspath(path.module)}/vendor/labels.tar.gz"
  name   = module.naming.name
}
