variable "image" {
  type    = string
  default = "base"
}

resource "aws_instance" "native" {
  ami  = var.image
  tags = { Name = "native" }
}
