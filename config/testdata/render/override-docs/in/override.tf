resource "aws_instance" "web" {
  ami = "foo"
}
